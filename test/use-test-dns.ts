/**
 * Preloaded into a program a test starts (node --import): its resolver asks TEST_DNS_SERVER alone (a server the test
 * runs, test/no-such-domain-dns.ts) instead of the machine's. Name lookups of the operating system (getaddrinfo) are
 * left as they are: the test's services are addressed as 127.0.0.1.
 */
import dns from 'node:dns';

const server = process.env.TEST_DNS_SERVER;
if (!server) throw new Error('test/use-test-dns.ts needs TEST_DNS_SERVER (host:port)');
dns.setServers([server]);
dns.promises.setServers([server]);
