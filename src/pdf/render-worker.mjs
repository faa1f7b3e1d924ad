// The file each render worker thread loads (render-pool.ts). It is JavaScript so that a thread can start it
// whether or not its parent runs TypeScript through tsx hooks (npm start inherits them, vitest's workers and a
// bare node do not); it loads the TypeScript task through tsx's API.
import { tsImport } from 'tsx/esm/api';

const task = await tsImport('./render-task.ts', import.meta.url);

export default task.default;
