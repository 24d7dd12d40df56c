// Vite's `?raw` import gives a file's text: tests read wrangler.toml to check the settings that
// the code mirrors as constants (a queue consumer's max_retries).
declare module '*.toml?raw' {
  const text: string;
  export default text;
}
