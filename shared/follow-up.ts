// The one follow-up a contacted opportunity gets when no reply came: its own
// short text with merge fields, until the user writes their own. Pure data.
import type { Pitch } from './opportunity-fields';

/** A follow-up from the pitch it follows: the same subject as a reply, a short body with merge fields. */
export function defaultFollowUp(pitch: Pitch): Pitch {
  return {
    subject: pitch.subject ? `Re: ${pitch.subject}` : 'Following up',
    body:
      'Hi {first_name},\n\n' +
      'A quick follow-up on my note about {article_title}: happy to send anything that would help, or to leave it there if it is not a fit.\n\n' +
      'Thanks,\n{sender_name}',
  };
}
