// `workbench undo`: take back the latest triage action (of a brand with
// --brand), from the window or the command line alike: each field goes back
// to what the action found, unless it was changed since. The history shows
// both the action and its undo.
import { brandIdOf } from '../brand-name';
import type { Ctx } from '../context';
import { parse, positiveInt } from '../options';
import { undo } from '../triage-act';

export const help = `  undo [--brand BRAND] [--action N]       take back the latest triage action (or action N)
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, { brand: { type: 'string' }, action: { type: 'string' } });
  await undo(
    ctx,
    {
      ...(values.brand !== undefined ? { brandId: await brandIdOf(ctx, values.brand) } : {}),
      ...(values.action !== undefined ? { actionId: positiveInt(values.action, '--action') } : {}),
    },
    asJson,
  );
}
