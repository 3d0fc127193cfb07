/** Whether a host name or address is a loopback one (the control API needs no token there). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
