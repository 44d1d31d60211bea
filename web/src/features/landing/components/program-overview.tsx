import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { PROGRAM_OUTLINE } from '../program-outline';
import '../landing.css';

const FAQ = [
  {
    q: 'Do I have to follow a schedule?',
    a: 'No. Modules open one after another as you finish them, and you go at your own pace. Reminder emails help you keep going; choose daily or weekly in Settings.',
  },
  {
    q: 'Why a code by email when I sign in with my password?',
    a: 'Your answers describe your career plans. A password plus a one-time code keeps your account yours even if the password leaks. A passkey (your device’s fingerprint, face or screen lock, added in Settings) is safe on its own: it signs you in without a password or a code.',
  },
  {
    q: 'Do I get a certificate?',
    a: 'Yes. Finish every module and your dashboard offers a certificate of completion: download it as a PDF, print it, add it to your LinkedIn profile or share its link. Anyone can check it at that link, without an account.',
  },
  {
    q: 'Who can see my answers?',
    a: 'Only you. Program administrators see how far you are through the modules, to support you, not what you wrote.',
  },
];

/** What the program gives, week by week, below the landing page's heading and 'Get started'. */
export function ProgramOverview() {
  return (
    <div className="landing-overview">
      <section aria-labelledby="landing-gives">
        <h2 id="landing-gives">What you get</h2>
        <ul className="landing-list">
          <li>A clear picture of your strengths and the roles that fit them.</li>
          <li>A résumé and online profile built from evidence, tailored to your target role.</li>
          <li>A search and networking routine you can keep up, week after week.</li>
          <li>Interview stories, a way to weigh offers, and a plan for your first 90 days.</li>
        </ul>
      </section>

      <section aria-labelledby="landing-weeks">
        <h2 id="landing-weeks">Four weeks, one step at a time</h2>
        <p>About two hours a week at your own pace: a short read per module, then tasks you do for your own search.</p>
        <ol className="landing-weeks">
          {PROGRAM_OUTLINE.map((week) => (
            <li key={week.week} className="landing-week">
              <h3>
                Week {week.week}: {week.title}
              </h3>
              <ul>
                {week.modules.map((title) => (
                  <li key={title}>{title}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="landing-produce">
        <h2 id="landing-produce">What you will have at the end</h2>
        <ul className="landing-list">
          <li>Achievement bullets for your résumé, with numbers.</li>
          <li>A one-line pitch you can say out loud.</li>
          <li>A tailored résumé, a target company list and a networking routine.</li>
          <li>A 90-day plan for starting your new role well.</li>
          <li>A certificate of completion that employers can check online.</li>
        </ul>
      </section>

      <section aria-labelledby="landing-faq">
        <h2 id="landing-faq">Questions</h2>
        {FAQ.map((item) => (
          <details key={item.q} className="landing-faq">
            <summary>{item.q}</summary>
            <p>{item.a}</p>
          </details>
        ))}
      </section>

      <p>
        <Link className="button button--primary" to={paths.register}>
          Start week 1
        </Link>
      </p>
    </div>
  );
}
