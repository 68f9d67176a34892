// Stands in for the classic theme's start-up Prism module (src/plugins/prism-off-startup.ts):
// nothing runs at start-up; src/prism/languages.ts registers the languages with the code block.
export {};
