/** Imported first by main.ts, before any other module is loaded (see tuneHeap). */
import { tuneHeap } from './heap-tuning';

tuneHeap();
