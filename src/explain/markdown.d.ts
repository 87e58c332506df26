// Markdown pages are imported as text (`with { type: "text" }`); Bun inlines them at build time.
declare module "*.md" {
  const text: string;
  export default text;
}
