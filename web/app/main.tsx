import { hydrateRoot } from 'react-dom/client';
import { Root } from './root.js';

const container = document.getElementById('root');
if (container) hydrateRoot(container, <Root pathname={window.location.pathname} />);
