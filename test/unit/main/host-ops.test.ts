// What main does when the core asks, as host-ops.ts wires it to Electron's
// side effects: the save dialog's title and file type follow the name the
// core suggests (an export, a workbook, the report as PDF or a web page), the
// window's PDF comes back as the bytes main printed, and links are checked again.
import { describe, expect, it } from 'vitest';
import { hostHandlers, saveDialogFor, type HostSideEffects } from '../../../electron/main/host-ops';

function fx(over: Partial<HostSideEffects> = {}): HostSideEffects & { opened: string[]; printed: number } {
  const opened: string[] = [];
  const self = {
    opened,
    printed: 0,
    writeClipboard: () => {},
    openExternal: async (u: string) => void opened.push(u),
    showItemInFolder: () => {},
    showSaveDialog: async (name: string) => `/home/ana/Documents/${name}`,
    showOpenDialog: async () => null,
    printToPdf: async () => {
      self.printed++;
      return new Uint8Array(Buffer.from('%PDF-1.7\n'));
    },
    ...over,
  };
  return self;
}

describe('the save dialog for what is saved', () => {
  it.each([
    ['contacts.csv', 'Export CSV', 'CSV', 'csv'],
    ['Acme results November 2026.xlsx', 'Export a workbook', 'Excel workbook', 'xlsx'],
    ['Acme results November 2026.pdf', 'Save the report as PDF', 'PDF', 'pdf'],
    ['Acme results November 2026.HTML', 'Save the report as a web page', 'Web page', 'html'],
    ['no extension', 'Export CSV', 'CSV', 'csv'],
    ['odd.exe', 'Export CSV', 'CSV', 'csv'],
  ])('%s: "%s", %s files', (name, title, kind, ext) => {
    expect(saveDialogFor(name)).toEqual({ title, filters: [{ name: kind, extensions: [ext] }] });
  });
});

describe('host operations', () => {
  it("window:print-pdf answers with the bytes main's printToPDF gave", async () => {
    const f = fx();
    const bytes = await hostHandlers(f)['window:print-pdf']({});
    expect(Buffer.from(bytes).toString('latin1')).toBe('%PDF-1.7\n');
    expect(f.printed).toBe(1);
  });
  it('a closed window is said, not hidden', async () => {
    const f = fx({
      printToPdf: async () => {
        throw new Error('The window is closed.');
      },
    });
    await expect(hostHandlers(f)['window:print-pdf']({})).rejects.toThrow('The window is closed.');
  });
  it('links are checked again here: only http(s) leaves', async () => {
    const f = fx();
    await hostHandlers(f)['shell:open-external']({ url: 'https://www.pressly.example/best-espresso-machines/' });
    await expect(hostHandlers(f)['shell:open-external']({ url: 'javascript:alert(1)' })).rejects.toThrow();
    expect(f.opened).toEqual(['https://www.pressly.example/best-espresso-machines/']);
  });
});
