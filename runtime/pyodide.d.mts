// For the type check only (tsconfig.worker.json): the worker imports
// ./pyodide.mjs from its own folder, where the build copies Pyodide's; its
// types are those Pyodide ships.
export * from "pyodide";
