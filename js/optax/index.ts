/**
 * `oxjax/optax`: optimisers over pytrees (issue "The whole jax-js API"). The sub-path export
 * exists from the first release so import maps and bundlers can resolve it; the optimisers
 * themselves arrive with the transformations they need (`grad`), and nothing is exported
 * before it works.
 */
export {};
