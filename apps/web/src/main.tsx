import { createRoot } from 'react-dom/client';
import { useState } from 'react';
function App() { const [n, setN] = useState(0); return <button onClick={() => setN(n + 1)}>{n}</button>; }
createRoot(document.getElementById('root')!).render(<App />);
