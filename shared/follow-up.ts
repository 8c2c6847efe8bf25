// The one follow-up a contacted opportunity gets when no reply came: its own
// short text with merge fields, until the user writes their own. Pure data.
import type { Pitch } from './opportunity-fields';

/**
 * A follow-up from the pitch it follows: a reply to the subject that was sent
 * (`sentSubject`, kept when it was marked contacted; else the pitch's), so it
 * threads in the journalist's inbox, and a short body with merge fields.
 */
export function defaultFollowUp(pitch: Pitch, sentSubject?: string | null): Pitch {
  const subject = (sentSubject ?? '').trim() || pitch.subject;
  return {
    subject: subject ? (/^re:/i.test(subject) ? subject : `Re: ${subject}`) : 'Following up',
    body:
      'Hi {first_name},\n\n' +
      'A quick follow-up on my note about {article_title}: happy to send anything that would help, or to leave it there if it is not a fit.\n\n' +
      'Thanks,\n{sender_name}',
  };
}
