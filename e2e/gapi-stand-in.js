/*
 * A stand-in for Google's iframe-messaging loader (https://apis.google.com/js/api.js),
 * served to the browser by the sign-in tests because this machine has no internet access.
 *
 * Firebase's popup sign-in, and the Auth Emulator's helper iframe, load that script only
 * to pass messages between the page and a hidden iframe. This file does the same with
 * window.postMessage: `gapi.load('gapi.iframes')`, `getContext().open()` in the page,
 * `getContext().getParentIframe()` in the iframe, and `register` / `send` / `ping` on
 * both ends. Everything about identity — the account chooser, the IdP response, the
 * tokens — stays with the real Auth Emulator and the real Firebase SDK.
 */
(() => {
  const TAG = '__portalGapiStandIn';
  let nextId = 1;

  class Channel {
    constructor(target, accept) {
      this.target = target;
      this.handlers = new Map();
      this.pending = new Map();
      this.readyCallbacks = [];
      this.ready = false;
      window.addEventListener('message', (event) => {
        const message = event.data;
        if (!message || message[TAG] === undefined || !accept(event.source)) return;
        if (message[TAG] === 'ready') {
          this.ready = true;
          this.readyCallbacks.splice(0).forEach((callback) => callback());
        } else if (message[TAG] === 'request') {
          const handler = this.handlers.get(message.type);
          const result = handler ? handler(message.data) : undefined;
          Promise.resolve(result).then((value) => {
            this.target().postMessage({ [TAG]: 'response', id: message.id, results: [value] }, '*');
          });
        } else if (message[TAG] === 'response') {
          const callback = this.pending.get(message.id);
          this.pending.delete(message.id);
          // Google's library runs callbacks inside try/catch; Firebase relies on that (its
          // webStorageSupport callback always throws after answering).
          try {
            if (callback) callback(message.results);
          } catch (error) {
            void error;
          }
        }
      });
    }

    register(type, handler) {
      this.handlers.set(type, handler);
    }

    unregister(type) {
      this.handlers.delete(type);
    }

    send(type, data, callback) {
      const id = nextId++;
      if (callback) this.pending.set(id, callback);
      this.target().postMessage({ [TAG]: 'request', id, type, data }, '*');
    }

    ping(callback) {
      return new Promise((resolve) => {
        const done = () => {
          if (callback) callback();
          resolve();
        };
        if (this.ready) done();
        else this.readyCallbacks.push(done);
      });
    }

    restyle() {
      return Promise.resolve();
    }
  }

  let parentChannel = null;
  const context = {
    open(options, opened) {
      const frame = document.createElement('iframe');
      const attributes = options.attributes || {};
      for (const [name, value] of Object.entries(attributes)) {
        if (name === 'style') Object.assign(frame.style, value);
        else frame.setAttribute(name, value);
      }
      const channel = new Channel(
        () => frame.contentWindow,
        (source) => source === frame.contentWindow,
      );
      frame.src = options.url;
      (options.where || document.body).appendChild(frame);
      return Promise.resolve(opened ? opened(channel) : channel);
    },
    getParentIframe() {
      if (!parentChannel) {
        parentChannel = new Channel(
          () => window.parent,
          (source) => source === window.parent,
        );
        window.parent.postMessage({ [TAG]: 'ready' }, '*');
      }
      return parentChannel;
    },
  };

  window.gapi = window.gapi || {};
  window.gapi.iframes = {
    CROSS_ORIGIN_IFRAMES_FILTER: () => true,
    getContext: () => context,
  };
  window.gapi.load = (_module, options) => {
    setTimeout(() => (typeof options === 'function' ? options : options.callback)(), 0);
  };

  // The real loader calls `?onload=<name>` or window.gapi_onload once it is ready.
  const script = document.currentScript;
  const onload = script && new URL(script.src).searchParams.get('onload');
  setTimeout(() => {
    if (onload && typeof window[onload] === 'function') window[onload]();
    else if (typeof window.gapi_onload === 'function') window.gapi_onload();
  }, 0);
})();
