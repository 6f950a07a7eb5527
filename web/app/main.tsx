import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Root } from './root.js';

const container = document.getElementById('root');
// Hydrating inside a transition lets React yield to the browser between slices of work, so the
// prerendered page stays responsive while it becomes interactive.
if (container) startTransition(() => void hydrateRoot(container, <Root pathname={window.location.pathname} />));
