// For the type check only: ./zstddec.mjs is the npm zstddec decoder, copied beside the worker.
export * from "zstddec";
