// The embeddable web-chat widget, served as GET /widget.js. A company's page embeds it with
//   <script src="https://crm.example.com/widget.js" data-widget-id="wid_…" async></script>
// and it talks to the visitor API (/api/v1/widget/…) next to where it was loaded from. Plain JavaScript for every
// browser in use, no external assets; its markup lives in a shadow root so the page's styles and its own do not mix.
(() => {
  const script = document.currentScript;
  const widgetId = script?.getAttribute('data-widget-id');
  if (!script || !widgetId) {
    console.warn('chat widget: the script tag needs data-widget-id="wid_…"');
    return;
  }
  const base = script.src.replace(/\/widget\.js(\?.*)?$/, '');
  const api = `${base}/api/v1/widget/${encodeURIComponent(widgetId)}`;
  const storeKey = `crm-widget:${widgetId}`;
  const POLL_MS = 3000;

  const TEXTS = {
    en: {
      open: 'Chat with us',
      title: 'Chat with {name}',
      close: 'Close chat',
      log: 'Messages',
      name: 'Your name (optional)',
      email: 'Your email address (optional)',
      message: 'Your message',
      send: 'Send',
      hint: 'Press Enter to send, Shift+Enter for a new line.',
      failed: 'Your message could not be sent. Please try again.',
      busy: 'Too many messages at once. Please wait a moment.',
      fix: 'Please correct the marked field.',
      invalid: {
        email: 'Check your email address.',
        name: 'Check your name.',
        body: 'Check your message.',
      },
      you: 'You',
      team: '{name}',
    },
    nl: {
      open: 'Chat met ons',
      title: 'Chat met {name}',
      close: 'Chat sluiten',
      log: 'Berichten',
      name: 'Uw naam (niet verplicht)',
      email: 'Uw e-mailadres (niet verplicht)',
      message: 'Uw bericht',
      send: 'Versturen',
      hint: 'Druk op Enter om te versturen, Shift+Enter voor een nieuwe regel.',
      failed: 'Uw bericht kon niet worden verstuurd. Probeer het opnieuw.',
      busy: 'Te veel berichten tegelijk. Wacht u even.',
      fix: 'Verbeter het gemarkeerde veld.',
      invalid: {
        email: 'Controleer uw e-mailadres.',
        name: 'Controleer uw naam.',
        body: 'Controleer uw bericht.',
      },
      you: 'U',
      team: '{name}',
    },
    de: {
      open: 'Chatten Sie mit uns',
      title: 'Chat mit {name}',
      close: 'Chat schließen',
      log: 'Nachrichten',
      name: 'Ihr Name (optional)',
      email: 'Ihre E-Mail-Adresse (optional)',
      message: 'Ihre Nachricht',
      send: 'Senden',
      hint: 'Enter zum Senden, Umschalt+Enter für eine neue Zeile.',
      failed: 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
      busy: 'Zu viele Nachrichten auf einmal. Bitte warten Sie einen Moment.',
      fix: 'Bitte korrigieren Sie das markierte Feld.',
      invalid: {
        email: 'Bitte prüfen Sie Ihre E-Mail-Adresse.',
        name: 'Bitte prüfen Sie Ihren Namen.',
        body: 'Bitte prüfen Sie Ihre Nachricht.',
      },
      you: 'Sie',
      team: '{name}',
    },
    fr: {
      open: 'Discutez avec nous',
      title: 'Discuter avec {name}',
      close: 'Fermer le chat',
      log: 'Messages',
      name: 'Votre nom (facultatif)',
      email: 'Votre adresse e-mail (facultatif)',
      message: 'Votre message',
      send: 'Envoyer',
      hint: 'Entrée pour envoyer, Maj+Entrée pour une nouvelle ligne.',
      failed: 'Votre message n’a pas pu être envoyé. Veuillez réessayer.',
      busy: 'Trop de messages à la fois. Veuillez patienter un instant.',
      fix: 'Veuillez corriger le champ signalé.',
      invalid: {
        email: 'Vérifiez votre adresse e-mail.',
        name: 'Vérifiez votre nom.',
        body: 'Vérifiez votre message.',
      },
      you: 'Vous',
      team: '{name}',
    },
  };
  const wanted = (script.getAttribute('data-language') || document.documentElement.lang || navigator.language || 'en')
    .slice(0, 2)
    .toLowerCase();
  const t = TEXTS[wanted] || TEXTS.en;

  const store = {
    get() {
      try {
        return localStorage.getItem(storeKey);
      } catch {
        return null;
      }
    },
    set(token) {
      try {
        if (token) localStorage.setItem(storeKey, token);
        else localStorage.removeItem(storeKey);
      } catch {
        // Storage refused (private mode): the conversation lasts as long as the page.
      }
    },
  };

  let token = store.get();
  let lastId = null;
  let companyName = '';
  let timer = null;
  const shown = new Set();

  async function call(path, options = {}) {
    const headers = { Accept: 'application/json', ...(options.body ? { 'Content-Type': 'application/json' } : {}) };
    if (options.auth && token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(`${api}${path}`, {
      method: options.method || 'GET',
      headers,
      body: options.body ? JSON.stringify(options.body) : undefined,
      credentials: 'omit',
    });
    const body = await response.json().catch(() => null);
    return { status: response.status, body };
  }

  const CSS = `
    :host { all: initial; }
    * { box-sizing: border-box; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    .launcher { position: fixed; right: 20px; bottom: 20px; z-index: 2147483000; border: 0; border-radius: 24px;
      padding: 12px 20px; background: #1d4ed8; color: #fff; font-size: 16px; font-weight: 600; cursor: pointer;
      box-shadow: 0 4px 14px rgba(15, 23, 42, .3); }
    .launcher:focus-visible, button:focus-visible, textarea:focus-visible, input:focus-visible {
      outline: 3px solid #f59e0b; outline-offset: 2px; }
    .panel { position: fixed; right: 20px; bottom: 80px; z-index: 2147483000; width: min(360px, calc(100vw - 40px));
      height: min(520px, calc(100vh - 120px)); display: flex; flex-direction: column; background: #fff; color: #0f172a;
      border: 1px solid #cbd5e1; border-radius: 12px; box-shadow: 0 10px 30px rgba(15, 23, 42, .25); overflow: hidden; }
    .panel[hidden] { display: none; }
    header { display: flex; align-items: center; justify-content: space-between; padding: 12px 16px;
      background: #1d4ed8; color: #fff; }
    h2 { margin: 0; font-size: 16px; }
    .close { border: 0; background: transparent; color: #fff; font-size: 22px; line-height: 1; cursor: pointer;
      padding: 4px 8px; border-radius: 6px; }
    .log { flex: 1; overflow-y: auto; padding: 12px 16px; display: flex; flex-direction: column; gap: 8px; }
    .msg { max-width: 85%; padding: 8px 12px; border-radius: 12px; white-space: pre-wrap; overflow-wrap: anywhere;
      font-size: 15px; line-height: 1.4; }
    .msg .who { display: block; font-size: 12px; font-weight: 600; margin-bottom: 2px; }
    .visitor { align-self: flex-end; background: #1d4ed8; color: #fff; }
    .team, .system { align-self: flex-start; background: #f1f5f9; color: #0f172a; }
    form { border-top: 1px solid #cbd5e1; padding: 12px 16px; display: flex; flex-direction: column; gap: 8px; }
    label { font-size: 13px; font-weight: 600; color: #334155; }
    input, textarea { width: 100%; border: 1px solid #64748b; border-radius: 8px; padding: 8px; font-size: 15px;
      color: #0f172a; background: #fff; }
    textarea { resize: none; height: 64px; }
    .row { display: flex; gap: 8px; align-items: flex-end; }
    .row > div { flex: 1; display: flex; flex-direction: column; gap: 4px; }
    .send { border: 0; border-radius: 8px; padding: 10px 16px; background: #1d4ed8; color: #fff; font-size: 15px;
      font-weight: 600; cursor: pointer; }
    .send:disabled { background: #64748b; cursor: default; }
    .hint, .status { font-size: 12px; color: #475569; margin: 0; }
    .status:empty { display: none; }
    .status { color: #b91c1c; }
    .field-error { font-size: 12px; color: #b91c1c; margin: 0; }
    .field-error[hidden] { display: none; }
    [aria-invalid="true"] { border-color: #b91c1c; }
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  `;

  function element(tag, attributes = {}, children = []) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  function build() {
    const host = element('div', { 'data-crm-widget': widgetId });
    const root = host.attachShadow({ mode: 'open' });
    const title = t.title.replace('{name}', companyName);
    const launcher = element('button', {
      type: 'button',
      class: 'launcher',
      'aria-expanded': 'false',
      'aria-controls': 'crm-chat-panel',
      text: t.open,
    });
    const close = element('button', { type: 'button', class: 'close', 'aria-label': t.close, text: '×' });
    const log = element('div', {
      class: 'log',
      role: 'log',
      'aria-live': 'polite',
      'aria-label': t.log,
      tabindex: '0',
    });
    const name = element('input', { id: 'crm-chat-name', type: 'text', autocomplete: 'name', maxlength: '200' });
    const email = element('input', { id: 'crm-chat-email', type: 'email', autocomplete: 'email', maxlength: '254' });
    const nameError = fieldError('crm-chat-name');
    const emailError = fieldError('crm-chat-email');
    const intro = element('div', {}, [
      element('label', { for: 'crm-chat-name', text: t.name }),
      name,
      nameError,
      element('label', { for: 'crm-chat-email', text: t.email }),
      email,
      emailError,
    ]);
    intro.style.cssText = 'display:flex;flex-direction:column;gap:4px';
    const text = element('textarea', {
      id: 'crm-chat-message',
      maxlength: '4000',
      required: '',
      'aria-describedby': 'crm-chat-hint crm-chat-message-error',
    });
    const textError = fieldError('crm-chat-message');
    const send = element('button', { type: 'submit', class: 'send', text: t.send });
    const status = element('p', { class: 'status', role: 'status' });
    const form = element('form', { novalidate: '' }, [
      intro,
      element('div', { class: 'row' }, [
        element('div', {}, [element('label', { for: 'crm-chat-message', text: t.message }), text, textError]),
        send,
      ]),
      element('p', { class: 'hint', id: 'crm-chat-hint', text: t.hint }),
      status,
    ]);
    const panel = element('section', { class: 'panel', id: 'crm-chat-panel', role: 'dialog', 'aria-label': title }, [
      element('header', {}, [element('h2', { text: title }), close]),
      log,
      form,
    ]);
    panel.hidden = true;
    root.append(element('style', { text: CSS }), panel, launcher);
    document.body.append(host);
    // The API's body fields (the pointers of its problems) and the inputs they come from.
    const fields = {
      '/name': { input: name, error: nameError, words: t.invalid.name },
      '/email': { input: email, error: emailError, words: t.invalid.email },
      '/body': { input: text, error: textError, words: t.invalid.body },
    };
    return { launcher, close, log, intro, name, email, text, send, status, form, panel, fields };
  }

  /** The place of an input's own problem, read with the input (aria-describedby). */
  function fieldError(inputId) {
    const node = element('p', { class: 'field-error', id: `${inputId}-error` });
    node.hidden = true;
    return node;
  }

  function clearField(field) {
    field.input.removeAttribute('aria-invalid');
    field.error.textContent = '';
    field.error.hidden = true;
  }

  /**
   * Shows next to each input the problem the API names for it (`errors[].pointer`), in the visitor's language;
   * the first such input, or undefined when the refusal names none of the visitor's fields.
   */
  function showFieldErrors(ui, errors) {
    let first;
    for (const error of Array.isArray(errors) ? errors : []) {
      const field = ui.fields[error?.pointer];
      if (!field) continue;
      field.input.setAttribute('aria-invalid', 'true');
      if (!field.input.getAttribute('aria-describedby')) field.input.setAttribute('aria-describedby', field.error.id);
      field.error.textContent = field.words;
      field.error.hidden = false;
      first = first || field.input;
    }
    return first;
  }

  function startPolling(ui) {
    if (timer) return;
    timer = setInterval(() => poll(ui), POLL_MS);
  }

  function render(ui, messages) {
    for (const m of messages) {
      lastId = m.id;
      if (shown.has(m.id)) continue;
      shown.add(m.id);
      const who = m.sender === 'visitor' ? t.you : t.team.replace('{name}', companyName);
      const bubble = element('div', { class: `msg ${m.sender}`, 'data-message-id': m.id }, [
        element('span', { class: 'who', text: who }),
        document.createTextNode(m.body),
      ]);
      ui.log.append(bubble);
    }
    ui.log.scrollTop = ui.log.scrollHeight;
    ui.intro.hidden = Boolean(token);
    ui.intro.style.display = token ? 'none' : 'flex';
  }

  async function poll(ui) {
    if (!token || document.hidden) return;
    try {
      const query = lastId ? `?after=${encodeURIComponent(lastId)}` : '';
      const { status, body } = await call(`/messages${query}`, { auth: true });
      if (status === 401) {
        // The session is gone (another browser's token, or the conversation deleted): start afresh on next send.
        token = null;
        store.set(null);
        render(ui, []);
        return;
      }
      if (status === 200) render(ui, body.data);
    } catch {
      // Offline for a moment: the next poll tries again.
    }
  }

  async function submit(ui) {
    const body = ui.text.value.trim();
    if (!body || ui.send.disabled) return;
    ui.send.disabled = true;
    ui.status.textContent = '';
    for (const field of Object.values(ui.fields)) clearField(field);
    let invalid;
    try {
      let result = token ? await call('/messages', { method: 'POST', auth: true, body: { body } }) : null;
      if (result && result.status === 401) {
        token = null;
        store.set(null);
      }
      if (!token) {
        const start = { body };
        if (ui.name.value.trim()) start.name = ui.name.value.trim();
        if (ui.email.value.trim()) start.email = ui.email.value.trim();
        if (/^https?:/.test(location.href) && location.href.length <= 2000) start.page_url = location.href;
        result = await call('/sessions', { method: 'POST', body: start });
        if (result.status === 201) {
          token = result.body.data.visitor_token;
          store.set(token);
          render(ui, result.body.data.messages);
          startPolling(ui);
        }
      } else if (result.status === 201) {
        // Messages the team wrote meanwhile come first.
        await poll(ui);
        render(ui, [result.body.data]);
      }
      if (result.status === 422) invalid = showFieldErrors(ui, result.body?.errors);
      if (result.status === 201) ui.text.value = '';
      else if (invalid) ui.status.textContent = t.fix;
      else ui.status.textContent = result.status === 429 ? t.busy : t.failed;
    } catch {
      ui.status.textContent = t.failed;
    } finally {
      ui.send.disabled = false;
      (invalid || ui.text).focus();
    }
  }

  function wire(ui) {
    const open = (show) => {
      ui.panel.hidden = !show;
      ui.launcher.setAttribute('aria-expanded', String(show));
      if (show) {
        ui.text.focus();
        poll(ui);
      } else ui.launcher.focus();
    };
    ui.launcher.addEventListener('click', () => open(ui.panel.hidden));
    ui.close.addEventListener('click', () => open(false));
    ui.panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') open(false);
    });
    ui.text.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        submit(ui);
      }
    });
    for (const field of Object.values(ui.fields)) field.input.addEventListener('input', () => clearField(field));
    ui.form.addEventListener('submit', (event) => {
      event.preventDefault();
      submit(ui);
    });
  }

  async function start() {
    let widget;
    try {
      widget = await call('');
    } catch {
      return;
    }
    if (widget.status !== 200) {
      console.warn(`chat widget: not available (${widget.body?.code ?? widget.status})`);
      return;
    }
    companyName = widget.body.data.company_name;
    const ui = build();
    wire(ui);
    render(ui, []);
    if (token) {
      await poll(ui);
      startPolling(ui);
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
