// The CommonJS main entry at the path of jax-js's build layout (`dist/index.cjs`).
module.exports = require("../cjs/index.cjs");
