// Who the player is: the server's welcome, the name chosen or refused, the guest's token, the
// sound switch. Pure: ``(S, message) -> changes`` (core/store.js writes them).
const NAME_REFUSED = new Set(["bad_name", "name_taken"]);  // the hello's guest name: the page asks for another

export const server = {
  // an account has no token (its session is a cookie): the guest's stored one is kept for signing out
  welcome: (S, m) => ({me: m.player, ...(m.token ? {token: m.token} : {})}),
  error: (S, m) => (NAME_REFUSED.has(m.code) ? {name: null, me: null} : null),
  missed: () => null,  // the snapshot after ``missed`` holds it all
  pong: () => null,
};

export const local = {
  named: (S, m) => ({name: m.name}),  // the guest's name, typed
  token_dropped: () => ({token: null}),  // the guest became an account: its token no longer opens it
  renamed: (S, m) => ({me: {...S.me, name: m.name}}),
  sound: (S) => ({sound: !S.sound}),
};

export const nameRefused = (m) => NAME_REFUSED.has(m.code);
