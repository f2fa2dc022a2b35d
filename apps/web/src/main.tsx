import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { applyTheme, readTheme } from './theme.ts';
import './styles.css';

// Before the first render, so a dark-mode user never sees a light flash (no inline script: the CSP forbids it).
applyTheme(readTheme(), false);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
