// The host's stand-in for Electron's preload: window.workbench over HTTP.
// Same method names and Result values as the app's bridge.
(() => {
  const token = '__TOKEN__';
  const listeners = new Map();
  let source = null;
  function ensureEvents() {
    if (source) return;
    source = new EventSource('/__host/events?token=' + token);
    source.onmessage = (m) => {
      const { event, payload } = JSON.parse(m.data);
      for (const l of listeners.get(event) ?? []) l(payload);
    };
  }
  const methods = new Proxy(
    {},
    {
      get(_t, name) {
        if (name === 'on') {
          return (event, listener) => {
            ensureEvents();
            if (!listeners.has(event)) listeners.set(event, new Set());
            listeners.get(event).add(listener);
            return () => listeners.get(event).delete(listener);
          };
        }
        if (typeof name !== 'string') return undefined;
        return async (...args) => {
          try {
            const res = await fetch('/__host/call?token=' + token, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ method: name, args }) });
            return await res.json();
          } catch (e) {
            return { ok: false, error: { kind: 'host', message: 'The test host did not answer: ' + e } };
          }
        };
      },
    },
  );
  window.workbench = methods;
  ensureEvents();
})();
