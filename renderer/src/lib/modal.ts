// A <dialog> opened as a modal when it is put on screen, and the focus given
// back to whatever had it before (the list, a button) when it goes, however it
// was closed: a Svelte attachment, `<dialog {@attach modal}>`.
export function modal(dialog: HTMLDialogElement): () => void {
  const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  if (!dialog.open) dialog.showModal();
  return () => {
    if (opener?.isConnected) opener.focus();
  };
}
