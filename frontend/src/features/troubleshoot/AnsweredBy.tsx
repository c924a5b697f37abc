import Typography from '@mui/material/Typography';
import type { TroubleshootingResult } from '../../api/types';

/** Who answered an analysis, as the maker reads it; '' when the result does not say. */
export function answeredBy(result: Pick<TroubleshootingResult, 'engine' | 'model' | 'fallbackFrom'>): string {
  const model = result.model?.trim();
  switch (result.engine) {
    case 'built-in':
      return 'Answered by the built-in engine';
    case 'gemini':
      return model ? `Answered by Gemini (${model})` : 'Answered by Gemini';
    case 'openai':
      return model ? `Answered by ${model}` : "Answered by the server's AI model";
    case 'fallback': {
      const failed = result.fallbackFrom === 'gemini' ? 'Gemini' : model || 'the AI model';
      return `Answered by the built-in engine (${failed} did not answer)`;
    }
    default:
      return '';
  }
}

/** A small caption naming the engine (or model) that answered. */
export function AnsweredBy({ result }: { result: TroubleshootingResult }) {
  const text = answeredBy(result);
  if (!text) return null;
  return (
    <Typography variant="caption" component="p" data-testid="answered-by" sx={{ color: 'text.secondary', mt: -1.5 }}>
      {text}
    </Typography>
  );
}
