"""The calculators' browser runtime: `runtime.build` builds it (self-hosted Pyodide, the calculators' wheel, the
lock file, the memory snapshot) into `.cache/pyodide/`; the other files here are what the browser runs. The site's
finishing step (rulebook/site/runtime.py) imports it; nothing here imports the finishing step."""
