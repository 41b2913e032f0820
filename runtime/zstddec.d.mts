// For the type check only: ./zstddec.mjs is the npm zstddec package's streaming decoder, copied beside the worker.
export * from "zstddec/stream";
