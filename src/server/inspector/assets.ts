// The inspector's files, bundled as text at build time (tsup's `?raw` plugin, Vite's `?raw` in the tests): the CLI
// and the library's server serve them from memory, with no file read at run time.
import html from './index.html?raw';
import css from './inspector.css?raw';
import panelsCss from './panels.css?raw';
import js from './inspector.js?raw';
import apiJs from './api.js?raw';
import auditJs from './audit.js?raw';
import chartsJs from './charts.js?raw';
import detailJs from './detail.js?raw';
import domJs from './dom.js?raw';
import liveJs from './live.js?raw';
import localeJs from './locale.js?raw';
import panelsJs from './panels.js?raw';
import webhooksJs from './webhooks.js?raw';
import uplotJs from 'uplot/dist/uPlot.iife.min.js?raw';
import uplotCss from 'uplot/dist/uPlot.min.css?raw';
import { SCENARIOS } from '../../scenarios/catalog.js';

export interface Asset {
  type: string;
  body: string;
}

const script = (body: string): Asset => ({ type: 'text/javascript; charset=utf-8', body });

/** The files under `/__sandbox/inspector/`: the page's script is `inspector.js` and the modules it imports. */
export const INSPECTOR_ASSETS: Record<string, Asset> = {
  'inspector.css': { type: 'text/css; charset=utf-8', body: css },
  'panels.css': { type: 'text/css; charset=utf-8', body: panelsCss },
  'inspector.js': script(js),
  'api.js': script(apiJs),
  'audit.js': script(auditJs),
  'charts.js': script(chartsJs),
  'detail.js': script(detailJs),
  'dom.js': script(domJs),
  'live.js': script(liveJs),
  'locale.js': script(localeJs),
  'panels.js': script(panelsJs),
  'webhooks.js': script(webhooksJs),
  'uplot.js': script(uplotJs),
  'uplot.css': { type: 'text/css; charset=utf-8', body: uplotCss },
};

/** The page, with the scenario catalogue as JSON data (not script: the policy allows no inline script). */
export function inspectorPage(): string {
  const catalog = JSON.stringify(SCENARIOS.map((sc) => ({ name: sc.name, description: sc.description }))).replace(
    /</g,
    '\\u003c',
  );
  return html.replace('__SCENARIOS__', () => catalog);
}

/** No inline script or style, nothing from another origin. */
export const INSPECTOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
