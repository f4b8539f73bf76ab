// Passkeys (WebAuthn) on Portvakt's pages: registration in My account (#passkey-register),
// sign-in on the passkey page (#passkey-sign-in with #passkey-start) and, where the browser
// offers it, in the password page's email field (conditional mediation). No framework; requests
// to this server only. Each outcome is said once in #passkey-status (role=status).
(function () {
  "use strict";
  var status = document.getElementById("passkey-status");

  function say(text) {
    if (!status || !text) { return; }
    status.textContent = "";
    // A change of text, not the same text twice, so a screen reader says it once.
    window.setTimeout(function () { status.textContent = text; }, 50);
  }
  function bytes(base64url) {
    var text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
    var out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) { out[i] = text.charCodeAt(i); }
    return out.buffer;
  }
  function text(buffer) {
    var view = new Uint8Array(buffer), out = "";
    for (var i = 0; i < view.length; i++) { out += String.fromCharCode(view[i]); }
    return btoa(out).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function options(form) {
    var body = new URLSearchParams();
    ["csrf", "flow", "name"].forEach(function (name) {
      if (form.elements[name]) { body.append(name, form.elements[name].value); }
    });
    return fetch(form.getAttribute("data-options"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json" },
      body: body.toString()
    }).then(function (response) {
      // Not JSON: the sign-in ended or the form expired; the page itself says what to do.
      if (!(response.headers.get("Content-Type") || "").startsWith("application/json")) {
        window.location.reload();
        throw { message: "" };
      }
      return response.json().then(function (answer) {
        if (!response.ok) { throw { message: answer.error_description }; }
        return answer.publicKey;
      });
    });
  }
  function supported() {
    return window.PublicKeyCredential && navigator.credentials && window.isSecureContext;
  }
  function failed(form, error) {
    if (error && !error.name && error.message !== undefined) { say(error.message); return; }
    // The authenticator holds a passkey for this account already (excludeCredentials).
    if (error && error.name === "InvalidStateError" && form.getAttribute("data-exists")) { say(form.getAttribute("data-exists")); return; }
    say(form.getAttribute("data-cancelled"));
  }

  // Registration in My account.
  var register = document.getElementById("passkey-register");
  if (register) {
    var button = register.querySelector("button[type=submit]");
    register.addEventListener("submit", function (event) {
      event.preventDefault();
      if (button.disabled) { return; }
      if (!supported()) { say(register.getAttribute("data-unsupported")); return; }
      if (!register.elements.name.value.trim()) { say(register.getAttribute("data-name")); register.elements.name.focus(); return; }
      button.disabled = true;
      say(register.getAttribute("data-waiting"));
      options(register).then(function (publicKey) {
        publicKey.challenge = bytes(publicKey.challenge);
        publicKey.user.id = bytes(publicKey.user.id);
        publicKey.excludeCredentials = publicKey.excludeCredentials.map(function (c) { return { type: c.type, id: bytes(c.id) }; });
        return navigator.credentials.create({ publicKey: publicKey });
      }).then(function (credential) {
        register.elements.client_data.value = text(credential.response.clientDataJSON);
        register.elements.attestation_object.value = text(credential.response.attestationObject);
        register.submit();
      }).catch(function (error) {
        button.disabled = false;
        failed(register, error);
        register.elements.name.focus();
      });
    });
  }

  // Sign-in: the passkey page's button, or the password page's email field.
  var signIn = document.getElementById("passkey-sign-in");
  if (!signIn) { return; }
  function send(credential) {
    signIn.elements.credential_id.value = text(credential.rawId);
    signIn.elements.client_data.value = text(credential.response.clientDataJSON);
    signIn.elements.authenticator_data.value = text(credential.response.authenticatorData);
    signIn.elements.signature.value = text(credential.response.signature);
    signIn.elements.user_handle.value = credential.response.userHandle ? text(credential.response.userHandle) : "";
    signIn.submit();
  }
  function ask(mediation) {
    return options(signIn).then(function (publicKey) {
      publicKey.challenge = bytes(publicKey.challenge);
      var request = { publicKey: publicKey };
      if (mediation) { request.mediation = mediation; }
      return navigator.credentials.get(request);
    });
  }
  var start = document.getElementById("passkey-start");
  if (start) {
    var noScript = document.getElementById("passkey-noscript");
    if (noScript) { noScript.hidden = true; }
    if (!supported()) { say(signIn.getAttribute("data-unsupported")); return; }
    start.hidden = false;
    start.addEventListener("click", function () {
      start.disabled = true;
      say(signIn.getAttribute("data-waiting"));
      ask(null).then(send).catch(function (error) {
        start.disabled = false;
        failed(signIn, error);
        start.focus();
      });
    });
    return;
  }
  if (supported() && PublicKeyCredential.isConditionalMediationAvailable) {
    PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
      if (available) { return ask("conditional").then(send); }
    }).catch(function () {});
  }
})();
