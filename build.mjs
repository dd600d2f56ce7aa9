// The browser client's bundle: static/js/main.js and what it imports, bundled by esbuild into
// static/dist/ (main.js, and a chunk for each screen loaded when first shown), minified; beside it
// sources.json, the hash of the sources it was built from (the server serves the sources
// themselves when they no longer match: tarot/server/web/assets.py). The bundle is committed, so
// that an install needs no node. docs/performance.md.
//   npm run build           rebuild static/dist/ (after any change to static/js/)
//   npm run check           exit 1 if static/dist/ is not what a build gives now
import {createHash} from "node:crypto";
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync} from "node:fs";
import {tmpdir} from "node:os";
import {join, relative, sep} from "node:path";
import {build} from "esbuild";

const STATIC = join(import.meta.dirname, "src", "tarot", "server", "static");
const SOURCES = join(STATIC, "js"), DIST = join(STATIC, "dist");

function files(dir) {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".js") ? [join(dir, e.name)] : []);
}

// the sources' hash: each module's path (relative to static/js, with /) and content, in path order
// (as tarot.server.web.assets.sources_hash computes it)
export function sourcesHash() {
  const hash = createHash("sha256");
  const paths = files(SOURCES).map((f) => relative(SOURCES, f).split(sep).join("/")).sort();
  for (const p of paths) hash.update(p + "\0").update(readFileSync(join(SOURCES, p))).update("\0");
  return hash.digest("hex");
}

async function bundle(outdir) {
  rmSync(outdir, {recursive: true, force: true});
  mkdirSync(outdir, {recursive: true});
  await build({
    entryPoints: [join(SOURCES, "main.js")], outdir, bundle: true, splitting: true, format: "esm",
    minify: true, target: "es2022", chunkNames: "chunk-[hash]", legalComments: "none", logLevel: "warning",
  });
  writeFileSync(join(outdir, "sources.json"), JSON.stringify({sources: sourcesHash()}) + "\n");
}

const listing = (dir) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), "utf8")]));

if (process.argv.includes("--check")) {
  const out = mkdtempSync(join(tmpdir(), "tarot-dist-"));
  try {
    await bundle(out);
    const built = listing(out), committed = listing(DIST);
    if (JSON.stringify(built) !== JSON.stringify(committed)) {
      console.error("static/dist/ is stale: run `npm run build` (built " + Object.keys(built).join(", ") +
                    "; committed " + Object.keys(committed).join(", ") + ")");
      process.exit(1);
    }
    console.log("static/dist/ is up to date");
  } finally { rmSync(out, {recursive: true, force: true}); }
} else {
  await bundle(DIST);
  console.log("built " + relative(process.cwd(), DIST) + ": " + readdirSync(DIST).join(", "));
}
