import { Paperclip, Trash2 } from 'lucide-react';
import { type DragEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { type Asset, assetContentUrl, useAssets, useDeleteAsset, useUploadAssets } from '../../api/assets';
import { ApiError } from '../../api/client';
import { ConfirmDialog } from '../../components/dialog';
import { Badge, Button, ErrorState, errorMessage, Loading, Time } from '../../components/ui';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The server's 413 names no file: say which one and what to do. */
function uploadError(file: File, error: unknown): string {
  if (error instanceof ApiError && error.status === 413) {
    return `${file.name} is too large (${formatSize(file.size)}). Ask an admin about the upload limit.`;
  }
  return `${file.name}: ${errorMessage(error)}`;
}

export function Assets({ boardId, taskId }: { boardId: string; taskId: string }) {
  const assets = useAssets(boardId, taskId);
  const [dragging, setDragging] = useState(false);
  const [uploadFailure, setUploadFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Asset | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const add = useUploadAssets(boardId, taskId);
  const remove = useDeleteAsset(boardId, taskId);
  const send = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    add.mutate([...files], {
      onSuccess: (failures, sent) => {
        setUploadFailure(
          failures.length > 0 ? failures.map(({ file, error }) => uploadError(file, error)).join(' ') : null,
        );
        const stored = sent.length - failures.length;
        if (stored > 0) toast.success(stored === 1 ? 'File attached' : `${stored} files attached`);
      },
    });
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    send(event.dataTransfer.files);
  };
  return (
    <section
      aria-labelledby="assets-heading"
      className={`space-y-3 rounded-md ${dragging ? 'outline-2 outline-dashed outline-blue-600' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2 id="assets-heading" className="font-semibold">
        Files
      </h2>
      {assets.isPending && <Loading label="Loading files…" />}
      {assets.isError && <ErrorState error={assets.error} onRetry={() => assets.refetch()} />}
      {assets.data?.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No files yet. Drop files here or pick them.
        </p>
      )}
      <ul className="space-y-1">
        {assets.data?.map((asset) => (
          <li key={asset.id} aria-label={asset.filename} className="flex items-center gap-2 text-sm">
            <Paperclip aria-hidden className="size-3.5 shrink-0 text-zinc-500" />
            <a
              href={assetContentUrl(boardId, taskId, asset.id)}
              download={asset.filename}
              className="min-w-0 flex-1 truncate text-blue-700 underline dark:text-blue-400"
            >
              {asset.filename}
            </a>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">{formatSize(asset.size)}</span>
            {asset.source !== 'user' && (
              <Badge tone="accent">{asset.source === 'agent' ? 'agent' : 'API'}</Badge>
            )}
            <span className="sr-only">
              added <Time iso={asset.createdAt} />
            </span>
            <Button
              variant="ghost"
              className="min-h-7 px-1.5"
              onClick={() => setDeleting(asset)}
              aria-label={`Delete file ${asset.filename}`}
            >
              <Trash2 aria-hidden className="size-3.5" />
            </Button>
          </li>
        ))}
      </ul>
      {uploadFailure && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {uploadFailure}
        </p>
      )}
      <input
        ref={picker}
        id="asset-picker"
        type="file"
        multiple
        aria-label="Files to attach"
        tabIndex={-1}
        className="sr-only"
        onChange={(event) => {
          send(event.currentTarget.files);
          event.currentTarget.value = '';
        }}
      />
      <Button onClick={() => picker.current?.click()} busy={add.isPending}>
        Attach files…
      </Button>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title="Delete this file?"
        description={`${deleting?.filename ?? ''} is removed from the task for everyone.`}
        confirmLabel="Delete file"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
        error={remove.error ? errorMessage(remove.error) : undefined}
      />
    </section>
  );
}
