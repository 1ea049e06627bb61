// The shell: header with the view tabs, notices about the core and the address,
// then the chosen view, and a footer line naming the core's build and threads. Views are separate components so each can be replaced.
import { EpsilonLab } from '../widgets/lab/EpsilonLab';
import { labView } from '../viewmodels/lab';
import { CoreNotice } from './CoreNotice';
import { ViewLink } from './ViewLink';
import { ViewTabs } from './ViewTabs';
import { view } from './state';
import { ThreadsLine } from './ThreadsLine';
import { UpdateNotice } from './UpdateNotice';
import { UrlProblems } from './UrlProblems';
import { Inspector } from './views/Inspector';
import { LessonsHome } from './views/LessonsHome';
import { Start } from './views/Start';
import { Train } from './views/Train';
import './App.css';

export function App() {
  return (
    <div class="app">
      <header class="app-header">
        <div class="app-brand">
          <ViewLink to="start" class="app-name">
            GlassLLM
          </ViewLink>
          <span class="app-tagline">a glass-box language model, computed live in your browser</span>
        </div>
        <ViewTabs />
      </header>
      <div class="app-notices">
        <CoreNotice />
        <UpdateNotice />
        <UrlProblems />
      </div>
      <main class="app-main" id="main">
        {view.value === 'start' && <Start />}
        {view.value === 'lessons' && <LessonsHome />}
        {view.value === 'lab' && <EpsilonLab lab={labView} />}
        {view.value === 'inspector' && <Inspector />}
        {view.value === 'train' && <Train />}
      </main>
      <footer>
        <ThreadsLine />
      </footer>
    </div>
  );
}
