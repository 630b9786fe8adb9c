export const invoice = 1;
