// The safety table's row names in the reader's language. The core engine's services are named in
// matrix-i18n.js; every other service names itself in its own words module (i18n/services/<id>.js,
// `serviceNames`), the one file that may say its name, fetched here once per page for the rows shown
// (a docs page's <lease-lab-matrix> of two rows fetches two). A service with no words module shows by
// its id.

const modules = new Map();

/** A service's words module ({ en, bn, … }), or null where it has none. */
function wordsOf(id) {
  if (!modules.has(id)) {
    const load = /^[a-z][a-z0-9_-]*$/.test(id) ? import(`./i18n/services/${id}.js`).then((m) => m.default, () => null) : Promise.resolve(null);
    modules.set(id, load);
  }
  return modules.get(id);
}

/** { id: name } for the services `ids`, in language `lang`, given matrix-i18n.js's words `w`. */
export async function serviceNamesOf(ids, lang, w) {
  const names = await Promise.all(
    ids.map(async (id) => {
      if (w.serviceNames[id]) return w.serviceNames[id];
      const words = await wordsOf(id);
      return words?.[lang]?.serviceNames?.[id] || words?.en?.serviceNames?.[id] || id;
    }),
  );
  return Object.fromEntries(ids.map((id, i) => [id, names[i]]));
}
