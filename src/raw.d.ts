/** Files imported as text (`import page from './index.html?raw'`): tsup's raw plugin and Vite both give a string. */
declare module '*?raw' {
  const text: string;
  export default text;
}
