/** A stylesheet imported as its text (webpack's asset/source, for the `?raw` query: see web/webpack.config.js). */
declare module '*.css?raw' {
  const css: string;
  export default css;
}
