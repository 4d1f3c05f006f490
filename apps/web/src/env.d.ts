// Vite bundles CSS imported from modules into one stylesheet.
declare module '*.css';
