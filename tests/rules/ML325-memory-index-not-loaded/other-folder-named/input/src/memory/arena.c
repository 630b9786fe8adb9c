int arena;
