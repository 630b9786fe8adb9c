export const App = () => null;
