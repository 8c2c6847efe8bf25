// `workbench replied`: the journalist replied (the stage Replied), as the
// window's `r` key; with --followed-up instead: the one follow-up was sent.
import type { Ctx } from '../context';
import { parse } from '../options';
import { act, TARGET_OPTIONS, targetsOf } from '../triage-act';

export const help = `  replied --brand BRAND --id OPP_ID [--id …]    the journalist replied (stage Replied)
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, TARGET_OPTIONS);
  const { brandId, ids } = await targetsOf(ctx, values);
  await act(ctx, brandId, ids, { do: 'replied' }, asJson);
}
