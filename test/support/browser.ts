import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium, headless, for the browser tests (.ci/run installs it when it can). The flags
 * keep it off the network it would otherwise try at start-up (this machine's network is closed).
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Whether the browser tests of `file` can run here; says why not when they cannot. */
export function browserAvailable(file: string): boolean {
  const present = existsSync(CHROMIUM);
  if (!present) console.warn(`${file} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return present;
}

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: ARGS });

/** Run in a page (`page.evaluate(drawnWidth, src)`): the width an image is drawn at, 0 when the browser cannot draw it. */
export const drawnWidth = (src: string) =>
  new Promise<number>((done) => {
    const image = new Image();
    image.onload = () => done(image.naturalWidth);
    image.onerror = () => done(0);
    image.src = src;
  });
