// Imports an ES module with Node's own loader: Docusaurus reads plugins through jiti, which
// turns import() into require(), and Pagefind's package can only be imported.
module.exports = (specifier) => import(specifier);
