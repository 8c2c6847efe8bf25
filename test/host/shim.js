// The host's stand-in for Electron's preload: window.workbench over HTTP.
// Same methods and Result values as the app's bridge: exactly the contract's
// methods (server.ts writes the names in from shared/contract-names.ts as it
// serves this file), and `on` for the contract's events only. Every argument
// and result is structured-cloned, as Electron's IPC does, so a value that
// could not cross the real bridge (a reactive proxy, a function) fails here too.
// The host's access token travels as a same-site cookie, never through page script.
(() => {
  const CONTRACT = /* contract names */ { methods: [], events: [] };
  const listeners = new Map();
  let source = null;
  function ensureEvents() {
    if (source) return;
    source = new EventSource('/__host/events');
    source.onmessage = (m) => {
      const { event, payload } = JSON.parse(m.data);
      for (const l of listeners.get(event) ?? []) l(structuredClone(payload));
    };
  }
  function method(name) {
    return async (...args) => {
      // Cloned first, and only the clone is encoded: what Electron's IPC would refuse (a reactive
      // proxy, a function, a class with private state) is refused here, before anything is sent,
      // instead of being flattened into JSON and slipping through.
      let cloned;
      try {
        cloned = structuredClone(args);
      } catch (e) {
        throw new TypeError(
          `workbench.${name}: an argument is not plain data and cannot cross the bridge (${e && e.message}). ` +
            'Pass a plain copy, e.g. $state.snapshot(value).',
        );
      }
      try {
        const res = await fetch('/__host/call', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ method: name, args: cloned }),
        });
        return structuredClone(await res.json());
      } catch (e) {
        return { ok: false, error: { kind: 'host', message: 'The test host did not answer: ' + e } };
      }
    };
  }
  function on(event, listener) {
    if (!CONTRACT.events.includes(event)) throw new Error(`No such event: ${String(event)}`);
    ensureEvents();
    if (!listeners.has(event)) listeners.set(event, new Set());
    listeners.get(event).add(listener);
    return () => listeners.get(event).delete(listener);
  }
  // A plain object, as contextBridge exposes: a name outside the contract is simply not there.
  window.workbench = Object.freeze({ ...Object.fromEntries(CONTRACT.methods.map((name) => [name, method(name)])), on });
  ensureEvents();
})();
