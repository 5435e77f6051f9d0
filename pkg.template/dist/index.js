// The package's main entry at the path of jax-js's build layout (`dist/index.js`), for code
// that imports the package by file path.
export * from "../index.js";
