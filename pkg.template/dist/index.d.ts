export * from "../index.js";
