// A module loaded when first needed, not with the page (issue 33: a lighter first visit):
// ``lazy(() => import("./x.js"))``: ``get()`` the module once it is there (else null), ``ready()``
// loads it (once) and resolves to it, ``then(f)`` runs f with it once it has loaded.
export function lazy(load) {
  let mod = null, loading = null;
  const after = [];
  const ready = () => {
    loading = loading || load().then((m) => { mod = m; for (const f of after) f(m); return m; },
      (e) => { loading = null; throw e; });
    return loading;
  };
  return {get: () => mod, ready, then: (f) => { after.push(f); }};
}

// A panel whose module loads first: built at once if it is there, else an empty box filled once it
// has loaded.
export function slot(module, build, tag = "div") {
  const m = module.get();
  if (m) return build(m);
  const box = document.createElement(tag);
  module.ready().then((loaded) => box.replaceWith(build(loaded)), () => {});
  return box;
}
