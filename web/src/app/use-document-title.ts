import { useEffect } from 'react';
import { documentTitle } from '@/lib/title';

export function useDocumentTitle(routeTitle: string | null | undefined, productName: string | undefined): void {
  useEffect(() => {
    document.title = documentTitle(routeTitle, productName);
  }, [routeTitle, productName]);
}
