// Catalogs compiled by @lingui/vite-plugin when imported (src/locales/<part>/<language>.po).
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
