// The pipeline's rules: an old local status carried onto the stage losing
// nothing, one follow-up and never two, no reply after the follow-up, snooze
// dates, and what each of the user's actions changes (the stage rules, in one place).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { STATUSES } from '../../../shared/domain';
import { addDays, dayNumber } from '../../../shared/calendar';
import {
  backFromSnooze,
  followUpDate,
  followUpDue,
  isSnoozed,
  NO_REPLY_REASON,
  noReplyExpired,
  NOT_A_FIT_REASONS,
  PIPELINE_DEFAULTS,
  PIPELINE_EVENTS,
  snoozeDates,
  LEGACY_STATUS_OF_STAGE,
  STAGE_OF_LEGACY_STATUS,
  STAGES,
  stageAfter,
  stageOfLegacyStatus,
  triagePatchOf,
  type StageFields,
  type Stage,
} from '../../../shared/pipeline';

describe('the pipeline', () => {
  it('knows the old local status each stage implied, and the stage each status stands for (to carry an old status over)', () => {
    for (const s of STAGES) expect(STATUSES).toContain(LEGACY_STATUS_OF_STAGE[s]);
    expect(LEGACY_STATUS_OF_STAGE).toMatchObject({ New: 'New', Won: 'Done', 'Not a fit': 'Archived', Contacted: 'In Progress' });
    // Each status's stage implies that status back.
    for (const st of STATUSES) expect(LEGACY_STATUS_OF_STAGE[STAGE_OF_LEGACY_STATUS[st]]).toBe(st);
  });

  it('suggests one follow-up after N days, and never again once followed up', () => {
    const t = { stage: 'Contacted' as const, contacted_at: '2026-11-20', followed_up_at: null };
    expect(followUpDue(t, '2026-11-22')).toBe(false);
    expect(followUpDue(t, '2026-11-23')).toBe(true);
    expect(followUpDue(t, '2026-11-23', { followUpAfterDays: 5, noReplyAfterDays: 7 })).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), (days) => {
        const today = addDays('2026-01-01', days);
        const after = stageAfter('followed-up', 'Contacted');
        expect(followUpDue({ stage: after, contacted_at: '2026-01-01', followed_up_at: today }, addDays(today, 30))).toBe(false);
      }),
    );
  });

  it('after the follow-up, M days without a reply: no reply', () => {
    expect(noReplyExpired({ stage: 'Followed up', followed_up_at: '2026-11-10' }, '2026-11-16')).toBe(false);
    expect(noReplyExpired({ stage: 'Followed up', followed_up_at: '2026-11-10' }, '2026-11-17')).toBe(true);
    expect(noReplyExpired({ stage: 'Replied', followed_up_at: '2026-11-10' }, '2026-12-30')).toBe(false);
  });

  it('moves forward by itself, never back from Replied, Won or Not a fit', () => {
    expect(stageAfter('draft-saved', 'New')).toBe('Drafted');
    expect(stageAfter('draft-saved', 'Contacted')).toBe('Contacted');
    expect(stageAfter('mailed', 'Drafted')).toBe('Contacted');
    expect(stageAfter('followed-up', 'Contacted')).toBe('Followed up');
    for (const end of ['Replied', 'Won', 'Not a fit'] as const)
      for (const e of ['draft-saved', 'mailed', 'followed-up'] as const) expect(stageAfter(e, end)).toBe(end);
  });

  it('snoozes to tomorrow, next Monday, a month on; back on the day', () => {
    // 2026-11-23 is a Monday.
    expect(snoozeDates('2026-11-23')).toEqual({ tomorrow: '2026-11-24', nextWeek: '2026-11-30', inAMonth: '2026-12-23' });
    expect(snoozeDates('2026-11-29').nextWeek).toBe('2026-11-30');
    expect(isSnoozed('2026-11-25', '2026-11-24')).toBe(true);
    expect(isSnoozed('2026-11-25', '2026-11-25')).toBe(false);
    expect(backFromSnooze('2026-11-25', '2026-11-25')).toBe(true);
    expect(backFromSnooze(null, '2026-11-25')).toBe(false);
  });
});

describe('stages and reasons', () => {
  it('the stages in a PR person’s order, the mapping table in full, the short list of reasons', () => {
    expect(STAGES).toEqual(['New', 'Drafted', 'Contacted', 'Followed up', 'Replied', 'Won', 'Not a fit']);
    expect(LEGACY_STATUS_OF_STAGE).toEqual({
      New: 'New',
      Drafted: 'In Progress',
      Contacted: 'In Progress',
      'Followed up': 'In Progress',
      Replied: 'In Progress',
      Won: 'Done',
      'Not a fit': 'Archived',
    });
    expect(NOT_A_FIT_REASONS).toEqual(['Not relevant', 'No contact', 'Paywalled or closed', 'Competitor owns it', 'No reply', 'Other']);
    expect(NOT_A_FIT_REASONS).toContain(NO_REPLY_REASON);
    expect(PIPELINE_DEFAULTS).toEqual({ followUpAfterDays: 3, noReplyAfterDays: 7 });
  });

  it('stageAfter: every event from every stage', () => {
    const table = STAGES.map((s) => [s, ...PIPELINE_EVENTS.map((e) => stageAfter(e, s))]);
    expect(table).toEqual([
      ['New', 'Drafted', 'Contacted', 'Followed up'],
      ['Drafted', 'Drafted', 'Contacted', 'Followed up'],
      ['Contacted', 'Contacted', 'Contacted', 'Followed up'],
      // Mailing the follow-up does not make it Contacted again (that would ask for a second follow-up).
      ['Followed up', 'Followed up', 'Followed up', 'Followed up'],
      ['Replied', 'Replied', 'Replied', 'Replied'],
      ['Won', 'Won', 'Won', 'Won'],
      ['Not a fit', 'Not a fit', 'Not a fit', 'Not a fit'],
    ]);
    expect(stageAfter('draft-saved', null)).toBe('Drafted');
  });

  it('stageAfter never moves backwards in the order of STAGES', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STAGES), fc.constantFrom(...PIPELINE_EVENTS), (stage, event) => {
        const next = stageAfter(event, stage);
        expect(STAGES.indexOf(next)).toBeGreaterThanOrEqual(STAGES.indexOf(stage));
        if (stage === 'Won' || stage === 'Not a fit' || stage === 'Replied') expect(next).toBe(stage);
      }),
    );
  });
});

describe('follow-ups', () => {
  it('due only for Contacted with a contact date, from exactly N days on', () => {
    const s = { followUpAfterDays: 3, noReplyAfterDays: 7 };
    expect(followUpDue({ stage: 'Contacted', contacted_at: '2026-11-20' }, '2026-11-23', s)).toBe(true);
    expect(followUpDue({ stage: 'Contacted', contacted_at: '2026-11-20' }, '2026-12-31', s)).toBe(true);
    expect(followUpDue({ stage: 'Contacted', contacted_at: '2026-11-20T23:10:00.000Z' }, '2026-11-23', s)).toBe(true);
    expect(followUpDue({ stage: 'Contacted', contacted_at: null }, '2026-11-23', s)).toBe(false);
    expect(followUpDue({ stage: 'Contacted', contacted_at: 'yesterday' }, '2026-11-23', s)).toBe(false);
    expect(followUpDue({ stage: 'Contacted', contacted_at: '2026-11-20', followed_up_at: '2026-11-22' }, '2026-11-23', s)).toBe(false);
    for (const stage of STAGES.filter((x) => x !== 'Contacted')) expect(followUpDue({ stage, contacted_at: '2026-01-01' }, '2026-11-23', s), stage).toBe(false);
    expect(followUpDue({ stage: null, contacted_at: '2026-01-01' }, '2026-11-23', s)).toBe(false);
    expect(followUpDue({ stage: 'Contacted', contacted_at: '2026-11-20' }, '2026-11-21', { followUpAfterDays: 0, noReplyAfterDays: 7 })).toBe(true);
    expect(followUpDate('2026-11-29')).toBe('2026-12-02');
  });

  it('no reply: only after the follow-up, from exactly M days on, over month ends', () => {
    expect(noReplyExpired({ stage: 'Followed up', followed_up_at: '2026-12-28' }, '2027-01-04')).toBe(true);
    expect(noReplyExpired({ stage: 'Followed up', followed_up_at: '2026-12-28' }, '2027-01-03')).toBe(false);
    expect(noReplyExpired({ stage: 'Followed up', followed_up_at: null }, '2027-01-03')).toBe(false);
    expect(noReplyExpired({ stage: 'Contacted', followed_up_at: '2026-01-01' }, '2027-01-03')).toBe(false);
    expect(noReplyExpired({ stage: 'Followed up', followed_up_at: '2026-11-20' }, '2026-11-22', { followUpAfterDays: 3, noReplyAfterDays: 2 })).toBe(true);
  });

  it('an opportunity’s whole life: the follow-up is due at most once, and no reply comes M days after it', () => {
    // A day-by-day simulation with the service's moves (mailed sets contacted_at, followed-up sets
    // followed_up_at): the user follows up whenever it is due, and may mail or save drafts at random.
    const action = fc.constantFrom<'none' | 'draft-saved' | 'mailed' | 'followed-up-early'>(
      'none',
      'none',
      'none',
      'draft-saved',
      'mailed',
      'followed-up-early',
    );
    fc.assert(
      fc.property(
        fc.array(action, { minLength: 1, maxLength: 60 }),
        fc.record({ followUpAfterDays: fc.integer({ min: 1, max: 10 }), noReplyAfterDays: fc.integer({ min: 1, max: 20 }) }),
        (days, settings) => {
          let t: { stage: Stage; contacted_at: string | null; followed_up_at: string | null } = { stage: 'New', contacted_at: null, followed_up_at: null };
          let followUps = 0;
          days.forEach((a, i) => {
            const today = addDays('2026-11-01', i);
            if (noReplyExpired(t, today, settings)) {
              expect(t.followed_up_at && addDays(t.followed_up_at, settings.noReplyAfterDays) <= today).toBe(true);
              t = { ...t, stage: 'Not a fit' };
            }
            if (followUpDue(t, today, settings)) {
              followUps++;
              t = { ...t, stage: stageAfter('followed-up', t.stage), followed_up_at: today };
            }
            if (a === 'draft-saved') t = { ...t, stage: stageAfter('draft-saved', t.stage) };
            if (a === 'mailed') t = { ...t, stage: stageAfter('mailed', t.stage), contacted_at: today };
            if (a === 'followed-up-early' && t.stage === 'Contacted') t = { ...t, stage: stageAfter('followed-up', t.stage), followed_up_at: today };
          });
          expect(followUps).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('snooze', () => {
  it('next week is the next Monday; in a month is the same day next month, or its last day', () => {
    expect(snoozeDates('2026-11-28')).toEqual({ tomorrow: '2026-11-29', nextWeek: '2026-11-30', inAMonth: '2026-12-28' });
    expect(snoozeDates('2026-12-31')).toEqual({ tomorrow: '2027-01-01', nextWeek: '2027-01-04', inAMonth: '2027-01-31' });
    expect(snoozeDates('2026-01-31').inAMonth).toBe('2026-02-28');
    expect(snoozeDates('2028-01-31').inAMonth).toBe('2028-02-29');
    expect(snoozeDates('1969-12-31').nextWeek).toBe('1970-01-05');
    expect(() => snoozeDates('2026-02-30')).toThrow(RangeError);
  });

  it('for any day: tomorrow is +1, next week a Monday within 7 days, in a month 28 to 31 days on', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
        const today = d.toISOString().slice(0, 10);
        const s = snoozeDates(today);
        const n = dayNumber(today)!;
        expect(dayNumber(s.tomorrow)).toBe(n + 1);
        const week = dayNumber(s.nextWeek)! - n;
        expect(week).toBeGreaterThanOrEqual(1);
        expect(week).toBeLessThanOrEqual(7);
        expect(new Date(`${s.nextWeek}T00:00:00Z`).getUTCDay()).toBe(1);
        const month = dayNumber(s.inAMonth)! - n;
        expect(month).toBeGreaterThanOrEqual(28);
        expect(month).toBeLessThanOrEqual(31);
        for (const until of [s.tomorrow, s.nextWeek, s.inAMonth]) {
          expect(isSnoozed(until, today)).toBe(true);
          expect(backFromSnooze(until, until)).toBe(true);
        }
      }),
    );
  });

  it('snoozed and back are each other’s opposite for a date, and both false without one', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400, max: 400 }), (k) => {
        const today = '2026-11-23';
        const until = addDays(today, k);
        expect(isSnoozed(until, today)).toBe(k > 0);
        expect(backFromSnooze(until, today)).toBe(k <= 0);
      }),
    );
    expect(isSnoozed(null, '2026-11-23')).toBe(false);
    expect(backFromSnooze(undefined, '2026-11-23')).toBe(false);
    expect(isSnoozed('not a date', '2026-11-23')).toBe(false);
  });
});

describe('an old local status carried onto the stage', () => {
  const at = (h: number) => `2026-11-0${h}T10:00:00.000Z`;
  const base = { status: null, status_changed_at: null, stage: null, stage_changed_at: null, stage_reason: null } as const;

  it('the later word wins; a status that says what the stage implies changes nothing', () => {
    // The status was set after the stage: its stage applies.
    expect(stageOfLegacyStatus({ ...base, status: 'Done', status_changed_at: at(2), stage: 'Contacted', stage_changed_at: at(1) })).toEqual({
      stage: 'Won',
      stage_reason: null,
      changed: true,
    });
    // The stage was set after: it stays.
    expect(stageOfLegacyStatus({ ...base, status: 'Done', status_changed_at: at(1), stage: 'Contacted', stage_changed_at: at(2) }).changed).toBe(false);
    // They agree (In Progress is what Contacted implied): nothing to carry.
    expect(stageOfLegacyStatus({ ...base, status: 'In Progress', status_changed_at: at(2), stage: 'Contacted', stage_changed_at: at(1) }).changed).toBe(false);
    // No stage, a status: In Progress is Drafted, Done is Won, New stays New.
    expect(stageOfLegacyStatus({ ...base, status: 'In Progress', status_changed_at: at(1) }).stage).toBe('Drafted');
    expect(stageOfLegacyStatus({ ...base, status: 'Done', status_changed_at: at(1) }).stage).toBe('Won');
    expect(stageOfLegacyStatus({ ...base, status: 'New', status_changed_at: at(1) })).toEqual({ stage: null, stage_reason: null, changed: false });
    // Back to New said later than a stage: New.
    expect(stageOfLegacyStatus({ ...base, status: 'New', status_changed_at: at(3), stage: 'Won', stage_changed_at: at(1) })).toEqual({
      stage: null,
      stage_reason: null,
      changed: true,
    });
  });

  it('Archived is Not a fit with the reason "Archived", or the reason already given', () => {
    expect(stageOfLegacyStatus({ ...base, status: 'Archived', status_changed_at: at(1) })).toEqual({
      stage: 'Not a fit',
      stage_reason: 'Archived',
      changed: true,
    });
    expect(
      stageOfLegacyStatus({
        ...base,
        status: 'Archived',
        status_changed_at: at(3),
        stage: 'Not a fit',
        stage_changed_at: at(1),
        stage_reason: 'Paywalled or closed',
      }).changed,
    ).toBe(false);
  });

  it('for every status, stage and order of their times: the result is the later word, and never loses a status that disagrees', () => {
    const times = [null, at(1), at(2)];
    for (const status of [null, ...STATUSES])
      for (const stage of STAGES)
        for (const statusAt of times)
          for (const stageAt of times) {
            const t = { ...base, status, status_changed_at: statusAt, stage: stage === 'New' ? null : stage, stage_changed_at: stageAt };
            const r = stageOfLegacyStatus(t);
            const what = JSON.stringify(t);
            const agrees = status === null || LEGACY_STATUS_OF_STAGE[stage] === status;
            const stageLater = stageAt !== null && (statusAt === null || stageAt >= statusAt);
            expect(r.changed, what).toBe(!agrees && !stageLater);
            // Whatever the outcome, the stage now implies the later word.
            if (r.changed) expect(LEGACY_STATUS_OF_STAGE[(r.stage ?? 'New') as Stage], what).toBe(status);
            else expect(r.stage, what).toBe(t.stage);
          }
  });
});

describe("what the user's actions change (the stage rules)", () => {
  const empty: StageFields = {
    stage: null,
    stage_reason: null,
    contacted_at: null,
    contacted_addresses: null,
    contacted_subject: null,
    snoozed_until: null,
    followed_up_at: null,
    note: '',
    starred: false,
  };
  const today = '2026-11-23';

  it('a stage by hand goes where asked; only Not a fit keeps a reason; Contacted without a date is contacted today', () => {
    expect(triagePatchOf({ do: 'stage', stage: 'New' }, { ...empty, stage: 'Won' }, today)).toEqual({ stage: null, stage_reason: null });
    expect(triagePatchOf({ do: 'stage', stage: 'Replied', reason: 'ignored' }, empty, today)).toEqual({ stage: 'Replied', stage_reason: null });
    expect(triagePatchOf({ do: 'not-a-fit', reason: ' Paywalled or closed ' }, empty, today)).toEqual({
      stage: 'Not a fit',
      stage_reason: 'Paywalled or closed',
    });
    expect(triagePatchOf({ do: 'stage', stage: 'Contacted' }, empty, today)).toEqual({ stage: 'Contacted', stage_reason: null, contacted_at: today });
    expect(triagePatchOf({ do: 'stage', stage: 'Contacted' }, { ...empty, contacted_at: '2026-11-01' }, today)).toEqual({
      stage: 'Contacted',
      stage_reason: null,
    });
    expect(triagePatchOf({ do: 'won' }, { ...empty, stage: 'Replied' }, today)).toEqual({ stage: 'Won', stage_reason: null });
    expect(triagePatchOf({ do: 'replied' }, { ...empty, stage: 'Followed up' }, today)).toEqual({ stage: 'Replied', stage_reason: null });
  });

  it('marked contacted: the day, the addresses and the subject sent; the stage forward only; a snooze ends', () => {
    expect(
      triagePatchOf(
        { do: 'contacted', addresses: ['ana@x.com'], subject: 'For X: an idea' },
        { ...empty, stage: 'Drafted', snoozed_until: '2026-12-01' },
        today,
      ),
    ).toEqual({ contacted_at: today, contacted_addresses: ['ana@x.com'], contacted_subject: 'For X: an idea', stage: 'Contacted', snoozed_until: null });
    expect(triagePatchOf({ do: 'contacted', on: '2026-11-20' }, { ...empty, stage: 'Replied' }, today)).toMatchObject({
      contacted_at: '2026-11-20',
      stage: 'Replied',
    });
    expect(triagePatchOf({ do: 'not-contacted' }, { ...empty, stage: 'Contacted', contacted_at: today }, today)).toEqual({
      contacted_at: null,
      contacted_addresses: null,
      contacted_subject: null,
      stage: null,
    });
    expect(triagePatchOf({ do: 'not-contacted' }, { ...empty, stage: 'Won', contacted_at: today }, today)).not.toHaveProperty('stage');
  });

  it('the follow-up, the snooze, the note and the star change only their own fields', () => {
    expect(triagePatchOf({ do: 'followed-up' }, { ...empty, stage: 'Contacted' }, today)).toEqual({ followed_up_at: today, stage: 'Followed up' });
    expect(triagePatchOf({ do: 'followed-up' }, { ...empty, stage: 'Replied' }, today)).toEqual({ followed_up_at: today, stage: 'Replied' });
    expect(triagePatchOf({ do: 'snooze', until: '2026-12-01' }, empty, today)).toEqual({ snoozed_until: '2026-12-01' });
    expect(triagePatchOf({ do: 'note', text: 'Called Ana' }, empty, today)).toEqual({ note: 'Called Ana' });
    expect(triagePatchOf({ do: 'star', on: true }, empty, today)).toEqual({ starred: true });
  });
});
