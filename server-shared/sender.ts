/** The sender's address, and the domain that names every message and invitation the product sends. */

/** The bare address of a `Name <address>` sender. */
export function mailAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

/** The domain of the sender's address: the right-hand side of each Message-ID and invitation UID. */
export function mailDomain(from: string): string {
  const address = mailAddress(from);
  return address.slice(address.lastIndexOf('@') + 1) || 'converge';
}
