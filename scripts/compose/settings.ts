/** The compose smoke test's fixed settings: its project, files, and the stack it expects. */
import path from 'node:path';
import { REPO_ROOT } from '../dev-services/config.js';

/** The compose project: its own, so that the stack of another checkout on this machine is left alone. */
export const PROJECT = process.env.COMPOSE_SMOKE_PROJECT ?? 'converge-smoke';
export const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');
export const STANDINS_PATH = path.join('shared', 'container-images', 'build-standins.sh');
export const LOG_FILE = path.join(REPO_ROOT, 'artifacts', 'compose-smoke.log');
/** What `--env-file` names: empty for the clean clone, then the .env cases' settings. */
export const NO_ENV_FILE = path.join(REPO_ROOT, 'artifacts', 'compose-smoke.no.env');
export const ENV_FILE = path.join(REPO_ROOT, 'artifacts', 'compose-smoke.env');
/** Where the compose file mounts the secrets volume (SECRETS_DIR). */
export const SECRETS_DIR = '/var/lib/converge/secrets';
export const APP_IMAGE = 'converge-app:latest';
/** Every character that breaks a postgres:// URL when written into it unencoded. */
export const POSTGRES_PASSWORD = 'p@ss/w:rd#1';
export const MORE_BOOKINGS = 20;
export const WORKERS = 3;
export const STOP_SECONDS = 10;
export const TIMEOUT_MINUTES = Number(process.env.COMPOSE_SMOKE_TIMEOUT_MINUTES ?? 20);
/** Every service of the stack, one container each (the worker scales later). */
export const STACK = { postgres: 1, redis: 1, mailpit: 1, caldav: 1, smsc: 1, api: 1, worker: 1 };
/** The demo team of docker/caldav/demo-team.json, whose calendars docker/caldav/seed.py fills on the first start. */
export const DEMO_HOSTS = ['Anna Berg', 'Dana Whitfield', 'Lina Okafor'];
/** A one-off event the seed puts in Anna Berg's and Lina Okafor's calendars (Dana Whitfield is not at work then). */
export const WORKSHOP_PATH = '/user/calendars/anna-berg/customer-workshop.ics';
export const KEEP = process.env.COMPOSE_SMOKE_KEEP === '1';
