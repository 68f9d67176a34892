// Stands in for src/prism/on-server.ts in the browser's bundle (src/plugins/prism-off-startup.ts):
// Prism stays out of it, and the code block loads it on demand.
const notInBrowser = null;
export default notInBrowser;
