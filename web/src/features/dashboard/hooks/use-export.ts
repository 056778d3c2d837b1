import { useLayoutEffect, useRef, useState } from 'react';
import { saveFile } from '@/lib/save-file';
import { EXPORT_FILE_NAMES, exportList } from '../api/export-list';
import type { ListKind } from '../types';
import type { ListQuery } from '../utils/query';

/**
 * Export of a list as a workbook: busy while it runs; a failure is said (with Retry), and after a
 * retry succeeds focus goes back to the Export button (the alert it was in is gone).
 */
export function useExport(kind: ListKind, query: ListQuery) {
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);
  const exportButton = useRef<HTMLButtonElement | HTMLAnchorElement>(null);
  const refocusExport = useRef(false);
  useLayoutEffect(() => {
    if (exporting || !refocusExport.current) return;
    refocusExport.current = false;
    exportButton.current?.focus();
  }, [exporting, exportFailed]);

  const onExport = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      saveFile(await exportList(kind, query), EXPORT_FILE_NAMES[kind]);
      refocusExport.current = exportFailed;
      setExportFailed(false);
    } catch {
      // Said, with a way to try again (the spec's "Export has no error handling" lost the click).
      setExportFailed(true);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, exportFailed, exportButton, onExport };
}
