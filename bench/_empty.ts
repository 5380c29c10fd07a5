// The baseline of bench/startup.bench.ts: a `deno run` of nothing, under the same flags.
