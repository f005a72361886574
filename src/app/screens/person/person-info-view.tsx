import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button, List, ListItem } from 'konsta/react';
import type { PersonInfoView as Info, StyleOption } from '../../../api/person';
import { dictLabel, TIMES_OF_DAY } from '../../../domain/catalog';
import { Errors } from '../../../domain/errors';

/** What is stored, the real name and ID number masked (decision 032), and "edit". */
export function PersonInfoView(props: { info: Info; styleOptions: StyleOption[]; onEdit(): void }) {
  const { i18n } = useLingui();
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  const { info } = props;
  // in the chain's order, whatever order they were ticked in
  const styles = props.styleOptions.filter((o) => info.styles.includes(o.value));
  const time = TIMES_OF_DAY.find((t) => t.value === info.practiceTime);
  const none = <Trans>未填写</Trans>;
  return (
    <article data-person-view>
      <List strong inset className="!my-3">
        <ListItem title={<Trans>真实姓名</Trans>} after={<span data-field="realName">{info.realName}</span>} />
        <ListItem
          title={<Trans>身份证号</Trans>}
          after={
            <span data-field="idNumber" className="tabular-nums">
              {info.idNumber}
            </span>
          }
        />
        <ListItem
          title={<Trans>瑜伽练习年限</Trans>}
          after={
            <span data-field="yogaAge">
              {info.yogaAge === null ? none : info.yogaAge === 0 ? <Trans>不到1年</Trans> : <Trans>{info.yogaAge}年</Trans>}
            </span>
          }
        />
        <ListItem
          title={<Trans>喜欢的课程类型</Trans>}
          after={
            <span data-field="styles">
              {styles.length ? styles.map((o) => dictLabel(o, locale)).join(locale === 'en' ? ', ' : '、') : none}
            </span>
          }
        />
        <ListItem title={<Trans>练习时间</Trans>} after={<span data-field="practiceTime">{time ? dictLabel(time, locale) : none}</span>} />
        <ListItem title={<Trans>希望的称呼</Trans>} after={<span data-field="salutation">{info.salutation || none}</span>} />
      </List>
      {info.identityLocked && (
        <Block className="!my-2 text-sm text-black/60" data-identity-locked>
          {i18n._(Errors.identityLocked.message)}
        </Block>
      )}
      <Block className="!my-4">
        <Button large rounded outline onClick={props.onEdit} data-action="person-edit">
          <Trans>修改</Trans>
        </Button>
      </Block>
    </article>
  );
}
