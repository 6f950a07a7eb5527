/** The hosts' list as JSON Schema: the OpenAPI document describes it, and the tests hold real answers to it. */

export const hostListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['team', 'hosts'],
  properties: {
    team: {
      type: 'boolean',
      description: 'Whether TEAM_FILE names a team; false: slots by SLOT_CAPACITY and no host.',
    },
    hosts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'name', 'state', 'lastGoodReadAt', 'lastTriedAt', 'lastError'],
        properties: {
          index: { type: 'integer', description: "The host's place in the team file, from 0." },
          name: { type: 'string' },
          state: {
            type: 'string',
            enum: ['unread', 'readable', 'unreadable'],
            description: 'unreadable: not offered until a read succeeds.',
          },
          lastGoodReadAt: { type: ['string', 'null'], format: 'date-time' },
          lastTriedAt: { type: ['string', 'null'], format: 'date-time' },
          lastError: { type: ['string', 'null'], description: 'Why the last read failed, while unreadable.' },
        },
      },
    },
  },
};
