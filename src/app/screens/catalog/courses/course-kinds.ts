import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { GoodsKind } from '../../../../domain/catalog';

/** The goods kinds sold as class-type catalogues (spec §2 "Class types"). */
export type CourseKind = Extract<GoodsKind, 'workshop' | 'open' | 'private' | 'primary' | 'training'>;

export interface CoursePages {
  /** the catalogue's path */
  list: string;
  /** the detail's path (takes ?id=) */
  detail: string;
  /** the catalogue's heading */
  heading: MessageDescriptor;
  /** what an empty catalogue says */
  empty: MessageDescriptor;
  /** what an unknown id says */
  notFound: MessageDescriptor;
}

/** Each class type's catalogue and detail paths (spec §2 routes); /primaryClass is the small-group catalogue (the Homepage entry), selling goods of kind primary. */
export const COURSE_PAGES: Record<CourseKind, CoursePages> = {
  workshop: {
    list: '/greatworkshop',
    detail: '/greatworkshop/greatWorkShopDetails',
    heading: msg`大师工作坊`,
    empty: msg`暂无工作坊，敬请期待`,
    notFound: msg`没有找到这个工作坊`,
  },
  open: {
    list: '/commonClass',
    detail: '/commonClass/commonClassDetails',
    heading: msg`公开课`,
    empty: msg`暂无公开课，敬请期待`,
    notFound: msg`没有找到这节公开课`,
  },
  private: {
    list: '/personalClass',
    detail: '/personalClass/personalClassDetails',
    heading: msg`私教课`,
    empty: msg`暂无私教课，敬请期待`,
    notFound: msg`没有找到这个私教课`,
  },
  primary: {
    list: '/primaryClass',
    detail: '/primaryClass/primaryClassDetails',
    heading: msg`小班课`,
    empty: msg`暂无小班课，敬请期待`,
    notFound: msg`没有找到这个小班课`,
  },
  training: {
    list: '/tt',
    detail: '/tt/ttDetails',
    heading: msg`培训课程`,
    empty: msg`暂无培训课程，敬请期待`,
    notFound: msg`没有找到这个培训课程`,
  },
};

/** The detail page of one goods item. */
export function courseDetailPath(kind: CourseKind, id: number): string {
  return `${COURSE_PAGES[kind].detail}?id=${id}`;
}
