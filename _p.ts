const t0 = performance.now();
const { lazy } = await import("./core/lazy.ts");
const m = await lazy<typeof import("./phi/names/lexicon.ts")>(import.meta.url, "./phi/names/lexicon.ts");
const t1 = performance.now();
const lex = await m.nameLexicon();
const t2 = performance.now();
console.log("import", (t1 - t0).toFixed(0), "build", (t2 - t1).toFixed(0), lex.any.size);
